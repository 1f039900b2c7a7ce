import { useRef, useState } from 'react';
import { contactUrl } from '../../../shared/contact';
import { productLink } from '../common/address';
import { priceFrom } from '../common/format';

/** What the last 分享 did: handed to the system's share sheet, copied, or (nothing could copy) shown to copy by hand. */
type Shared = { kind: 'copied' } | { kind: 'manual'; url: string } | null;

interface ShareNavigator {
  share?: (data: { title: string; text: string; url: string }) => Promise<void>;
  clipboard?: { writeText(text: string): Promise<void> };
}

/** Copies `text` by the old way (a selected field and the copy command), for browsers without the clipboard API (http pages, older WebViews). */
function copyBySelection(text: string): boolean {
  const field = document.createElement('textarea');
  field.value = text;
  field.setAttribute('readonly', '');
  field.style.position = 'fixed';
  field.style.opacity = '0';
  document.body.appendChild(field);
  field.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    field.remove();
  }
}

/**
 * A product page's bottom bar: 分享 (the system's share sheet where the browser has one, the Web
 * Share API; else the product's own address copied, said on screen) and 客服 (the address the
 * service announces, H5_CONTACT_URL; no 客服 where none is set). The link shared is the product's
 * own address, whose page carries its preview (name, price, picture).
 */
export function ShareBar({ id, name, lowestPrice }: { id: string; name: string; lowestPrice: string | null }) {
  const [shared, setShared] = useState<Shared>(null);
  const manual = useRef<HTMLInputElement>(null);
  const contact = contactUrl();
  const share = async () => {
    const url = productLink(id);
    const nav = navigator as unknown as ShareNavigator;
    setShared(null);
    if (typeof nav.share === 'function') {
      try {
        await nav.share({ title: name, text: priceFrom(lowestPrice) ?? '暂无报价', url });
        return;
      } catch (e) {
        // The shopper closed the sheet: nothing to say. Refused (not allowed here): copy instead.
        if ((e as { name?: string }).name === 'AbortError') return;
      }
    }
    try {
      if (!nav.clipboard) throw new Error('no clipboard');
      await nav.clipboard.writeText(url);
      setShared({ kind: 'copied' });
    } catch {
      if (copyBySelection(url)) setShared({ kind: 'copied' });
      else {
        setShared({ kind: 'manual', url });
        requestAnimationFrame(() => manual.current?.select());
      }
    }
  };
  return (
    <div className="actionbar" data-testid="action-bar">
      {shared && (
        <div className="share-note" role="status" data-testid="share-note">
          {shared.kind === 'copied' ? (
            '链接已复制，粘贴给好友即可分享'
          ) : (
            <>
              <label htmlFor="share-link">复制不了，请长按下面的链接复制</label>
              <input id="share-link" ref={manual} readOnly value={shared.url} onFocus={(e) => e.currentTarget.select()} />
            </>
          )}
        </div>
      )}
      <div className="actionbar-buttons">
        <button type="button" className="btn" onClick={() => void share()} data-testid="share">
          分享
        </button>
        {contact && (
          <a className="btn primary" href={contact} target={/^https?:/.test(contact) ? '_blank' : undefined} rel="noopener noreferrer" data-testid="contact">
            客服
          </a>
        )}
      </div>
    </div>
  );
}
