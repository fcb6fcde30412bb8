import type { NoticeModel } from '../view-model.ts';
import { Body } from './body.tsx';

/** A page's notice banner: info, confirmation or change. */
export function NoticeBanner({ notice }: { notice: NoticeModel }) {
  return (
    <div role="note" className={`notice-banner notice-${notice.appearance}`}>
      <p className="notice-title"><strong>{notice.title}</strong></p>
      <Body body={notice.message} />
    </div>
  );
}
