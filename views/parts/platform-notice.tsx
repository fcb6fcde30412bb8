import { Fragment, type ReactNode } from 'react';
import type { KbPlatform } from '../../server/content/schemas.ts';

/** An end-of-support notice from site.yaml: `text` with {date} and {link} filled in here. */
export interface EndOfSupportNotice {
  text: string;
  /** Already formatted for the page's language. */
  date: string;
  linkText?: string | undefined;
  href?: string | undefined;
}

export interface PlatformNoticeProps {
  platform: KbPlatform;
  /** The site's deployment labels (site.yaml `deployments`). */
  labels: { cloud: string; dataCenter: string };
  /** The end-of-support notices that apply to this article's products (spec §2 Knowledge-base article). */
  endOfSupport: EndOfSupportNotice[];
}

const LABELS: Record<KbPlatform, (cloud: string, dc: string) => string> = {
  'cloud-only': (c) => `${c} only`,
  'cloud-and-data-center': (c, d) => `${c} and ${d}`,
  'data-center-only': (_, d) => `${d} only`,
  'data-center-and-cloud-by-request': (c, d) => `${d} and ${c} by request`,
};

const TEXT: Record<KbPlatform, (cloud: string, dc: string) => string> = {
  'cloud-only': (c) => `This article applies to ${c} products only.`,
  'cloud-and-data-center': (c, d) => `This article applies to both ${c} and ${d} products.`,
  'data-center-only': (_, d) => `This article applies to ${d} products only.`,
  'data-center-and-cloud-by-request': (c, d) => `This article was written for ${d}. For ${c}, its steps can be carried out by our support team on request.`,
};

/** Platforms with a self-hosted edition, whose articles carry the end-of-support notices. */
export const SELF_HOSTED_PLATFORMS: readonly KbPlatform[] = ['data-center-only', 'cloud-and-data-center'];

/** 'February 15th 2024' in English, the locale's long date otherwise; `iso` is YYYY-MM-DD. */
export function formatNoticeDate(iso: string, language: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  if (!y || !m || !d) return iso;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (!language.startsWith('en')) return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
  const month = new Intl.DateTimeFormat('en-US', { month: 'long', timeZone: 'UTC' }).format(date);
  const suffix = d % 100 >= 11 && d % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[d % 10] ?? 'th';
  return `${month} ${d}${suffix} ${y}`;
}

/** The notice's sentence after a space: plain text runs, and its link where the text says {link}. */
function fill(notice: EndOfSupportNotice): ReactNode[] {
  const link = notice.linkText ?? notice.href ?? '';
  const text = ` ${notice.text.replaceAll('{date}', notice.date)}`;
  if (!notice.href) return [text.replaceAll('{link}', link)];
  return text.split('{link}').flatMap((run, i) => (i === 0 ? [run] : [<a key={i} href={notice.href}>{link}</a>, run]))
    .filter((part) => part !== '');
}

export function PlatformNotice({ platform, labels, endOfSupport }: PlatformNoticeProps) {
  const { cloud, dataCenter } = labels;
  const notices = SELF_HOSTED_PLATFORMS.includes(platform) ? endOfSupport : [];
  return (
    <div className={`platform-notice platform-${platform}`} role="note" aria-label="Platform">
      <p className="platform-notice-label"><strong>{`Platform notice: ${LABELS[platform](cloud, dataCenter)}`}</strong></p>
      <p>
        {TEXT[platform](cloud, dataCenter)}
        {notices.map((n, i) => <Fragment key={i}>{fill(n)}</Fragment>)}
      </p>
    </div>
  );
}
