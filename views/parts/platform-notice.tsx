import type { KbPlatform } from '../../server/content/schemas.ts';

export interface PlatformNoticeProps {
  platform: KbPlatform;
  /**
   * The Server end-of-support sentence, naming the brand and linking its announcement when there is one;
   * null for products that never had Server.
   */
  serverEndOfSupport: { brand: string; href?: string | undefined } | null;
}

const LABELS: Record<KbPlatform, string> = {
  'cloud-only': 'Cloud only',
  'cloud-and-data-center': 'Cloud and Data Center',
  'data-center-only': 'Data Center only',
  'data-center-and-cloud-by-request': 'Data Center and Cloud by request',
};

const TEXT: Record<KbPlatform, string> = {
  'cloud-only': 'This article applies to Cloud products only.',
  'cloud-and-data-center': 'This article applies to both Cloud and Data Center products.',
  'data-center-only': 'This article applies to Data Center products only.',
  'data-center-and-cloud-by-request': 'This article was written for Data Center. For Cloud, its steps can be carried out by our support team on request.',
};

/** Spec §9: the Server end of support date. */
const SERVER_END_DATE = 'February 15th 2024';

export function PlatformNotice({ platform, serverEndOfSupport }: PlatformNoticeProps) {
  const eos = platform === 'data-center-only' || platform === 'cloud-and-data-center' ? serverEndOfSupport : null;
  const announcement = eos ? `${eos.brand} Server end of support announcement` : '';
  return (
    <div className={`platform-notice platform-${platform}`} role="note" aria-label="Platform">
      <p className="platform-notice-label"><strong>{`Platform notice: ${LABELS[platform]}`}</strong></p>
      <p>
        {TEXT[platform]}
        {eos ? (
          <>
            {` Support for Server products ended on ${SERVER_END_DATE}. If you are running a Server product, you can visit the `}
            {eos.href ? <a href={eos.href}>{announcement}</a> : announcement}
            {' to review your migration options.'}
          </>
        ) : null}
      </p>
    </div>
  );
}
