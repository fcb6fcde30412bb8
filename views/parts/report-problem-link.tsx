import { useStrings } from '../i18n/catalogue.tsx';

/** 'Report a problem' on topic and KB pages (spec §7 issue collector): a short form of its own about this page. */
export function ReportProblemLink({ path }: { path: string }) {
  const t = useStrings();
  return (
    <p className="report-problem">
      <a href={`/report-problem?page=${encodeURIComponent(path)}`}>{t.supportForm.reportProblem}</a>
    </p>
  );
}
