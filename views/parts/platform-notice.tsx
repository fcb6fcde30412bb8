import type { KbPlatform } from '../../server/content/schemas.ts';

export interface PlatformNoticeProps {
  platform: KbPlatform;
  /** The Server end-of-support sentence is left out for products that never had Server. */
  showServerEndOfSupport: boolean;
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

export const SERVER_END_OF_SUPPORT = 'Support for Server products ended on February 15th 2024. If you are running a Server product, you can visit the Fernhollow Server end of support announcement to review your migration options.';

export function PlatformNotice({ platform, showServerEndOfSupport }: PlatformNoticeProps) {
  const mentionsServer = showServerEndOfSupport && (platform === 'data-center-only' || platform === 'cloud-and-data-center');
  return (
    <div className={`platform-notice platform-${platform}`} role="note" aria-label="Platform">
      <p className="platform-notice-label"><strong>{`Platform notice: ${LABELS[platform]}`}</strong></p>
      <p>{mentionsServer ? `${TEXT[platform]} ${SERVER_END_OF_SUPPORT}` : TEXT[platform]}</p>
    </div>
  );
}
