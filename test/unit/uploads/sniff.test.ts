import { sniffImage } from '../../../src/uploads/sniff';

const hex = (h: string) => Buffer.from(h, 'hex');

describe('sniffImage', () => {
  it.each([
    ['png', hex('89504e470d0a1a0a0000000d49484452'), 'image/png'],
    ['jpg', hex('ffd8ffe000104a46494600010100'), 'image/jpeg'],
    ['jpg', hex('ffd8ffe1001845786966000049492a00'), 'image/jpeg'],
    ['webp', Buffer.concat([Buffer.from('RIFF'), hex('1a000000'), Buffer.from('WEBPVP8L')]), 'image/webp'],
    ['gif', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'), 'image/gif'],
    ['gif', Buffer.from('GIF87a\x01\x00\x01\x00', 'latin1'), 'image/gif'],
  ])('recognises %s by its bytes', (kind, bytes, mime) => {
    expect(sniffImage(bytes)).toEqual({ kind, mime });
  });

  it.each([
    ['SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>')],
    ['SVG with an XML prolog', Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['HTML', Buffer.from('<!doctype html><script>alert(1)</script>')],
    ['PDF', Buffer.from('%PDF-1.7\n')],
    ['ZIP', hex('504b0304140000000800')],
    ['plain text', Buffer.from('just text')],
    ['nothing', Buffer.alloc(0)],
    ['a RIFF that is not WEBP (WAV)', Buffer.concat([Buffer.from('RIFF'), hex('24000000'), Buffer.from('WAVEfmt ')])],
  ])('refuses %s', (_what, bytes) => {
    expect(sniffImage(bytes)).toBeNull();
  });
});
