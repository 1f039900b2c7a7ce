/**
 * POST /upload (authenticated, throttled): one image in the multipart field `file` → `{url}`.
 * GET /uploads/:name: the stored files, under names this service generated and nothing else.
 */
import { randomUUID } from 'node:crypto';
import { Router, type RequestHandler } from 'express';
import multer from 'multer';
import { z } from 'zod';
import { AppError } from '../platform/errors';
import type { RouteDoc } from '../platform/http/openapi';
import type { Logger } from '../platform/log';
import { LIMITS, throttle, type ThrottleStores } from '../platform/http/rate-limit';
import { isInvalidText, isUtf8Bytes } from '../platform/http/text';
import { sniffImage } from './sniff';
import { contentTypeOf, type UploadStorage } from './storage';
import { uploaded } from '../contract/uploads';

export const FILE_FIELD = 'file';
/** The only names GET /uploads/:name serves; anything else (`..`, encoded slashes, dotfiles) is a 404. */
const STORED_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(png|jpg|webp|gif)$/;

export const uploadRouteDocs: RouteDoc[] = [
  {
    method: 'post',
    path: '/upload',
    summary: 'Upload one png, jpg, webp or gif image (multipart field `file`)',
    auth: true,
    multipartFile: FILE_FIELD,
    throttled: true,
    errors: ['UPLOAD.FILE_REQUIRED', 'UPLOAD.INVALID', 'UPLOAD.MALFORMED', 'UPLOAD.TOO_LARGE', 'UPLOAD.UNSUPPORTED_TYPE'],
    responses: { 201: uploaded },
  },
  {
    method: 'get',
    path: '/uploads/:name',
    summary: 'A stored upload (names this service generated only; anything else is 404)',
    params: z.object({ name: z.string().regex(STORED_NAME) }),
    cached: true,
    errors: ['NOT_FOUND'],
    responses: { 200: { contentType: 'image/*', description: 'The image, nosniff, cached for a year' } },
  },
];

/**
 * A part's file name as the parser decoded it: byte by byte (latin1) unless the part named a charset,
 * so a name of single-byte characters is checked as the bytes that were sent.
 */
function isText(name: string): boolean {
  if (isInvalidText(name)) return false;
  // eslint-disable-next-line no-control-regex -- the range is all of Latin-1, control characters included
  return !/^[\x00-\xff]*$/.test(name) || isUtf8Bytes(Buffer.from(name, 'latin1'));
}

export interface UploadDeps {
  /** where files are kept (UPLOAD_STORAGE): the database, or UPLOAD_DIR */
  storage: UploadStorage;
  maxBytes: number;
  apiPrefix: string;
  guard: RequestHandler;
  /** where the upload throttle counts (default: this process's memory) */
  throttleStores?: ThrottleStores;
  log?: Logger;
}

export function uploadRoutes({ storage, maxBytes, apiPrefix, guard, log, throttleStores }: UploadDeps): Router {
  const r = Router();
  // In memory: the bytes are sniffed before anything touches the disk, and the size limit bounds memory.
  const receive = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 1024, parts: 12 },
  }).single(FILE_FIELD);

  const receiveOne: RequestHandler = (req, res, next) => {
    receive(req, res, (err: unknown) => {
      if (!err) return next();
      if (err instanceof multer.MulterError) {
        if (err.code === 'LIMIT_FILE_SIZE') return next(new AppError('UPLOAD.TOO_LARGE', 413, `the file exceeds ${maxBytes} bytes`));
        return next(AppError.badRequest('UPLOAD.INVALID', `${err.message}; send one file in the multipart field "${FILE_FIELD}"`));
      }
      // Anything else the parser (busboy) raises is the body's fault: no or a mismatched boundary,
      // a truncated body, a malformed or oversized part header. Files are kept in memory, so there
      // is no storage of ours that could have failed here.
      next(
        AppError.badRequest(
          'UPLOAD.MALFORMED',
          `the multipart body is malformed (${err instanceof Error ? err.message : String(err)}); send one file in the multipart field "${FILE_FIELD}"`,
        ),
      );
    });
  };

  r.post('/upload', guard, throttle(LIMITS.upload, log, throttleStores), receiveOne, async (req, res) => {
    const file = req.file;
    if (!file) throw AppError.badRequest('UPLOAD.FILE_REQUIRED', `send one file in the multipart field "${FILE_FIELD}"`);
    // The name is never used (files get generated names), but one that is not text is a broken body,
    // refused as such text is anywhere else (docs/http-contract.md, Text).
    if (!isText(file.originalname)) {
      throw AppError.badRequest('REQUEST.INVALID_TEXT', 'the file name contains a NUL character, an unpaired surrogate or bytes that are not UTF-8', { path: 'file.filename' });
    }
    const image = sniffImage(file.buffer);
    if (!image) throw new AppError('UPLOAD.UNSUPPORTED_TYPE', 415, 'only png, jpg, webp and gif images are accepted');
    const name = `${randomUUID()}.${image.kind}`;
    await storage.put(name, file.buffer, contentTypeOf(name));
    res.status(201).json({ url: `${apiPrefix}/uploads/${name}` });
  });

  r.get('/uploads/:name', async (req, res) => {
    const name = String(req.params.name);
    if (!STORED_NAME.test(name)) throw AppError.notFound('NOT_FOUND', 'no such file');
    const file = await storage.get(name);
    if (!file) throw AppError.notFound('NOT_FOUND', 'no such file');
    // The same answer from either storage, and from any process.
    res.set({
      'Content-Type': file.contentType,
      ETag: file.etag,
      'Last-Modified': file.storedAt.toUTCString(),
      // The extension was chosen from the sniffed bytes, and the browser must not second-guess it.
      'X-Content-Type-Options': 'nosniff',
      'Cross-Origin-Resource-Policy': 'cross-origin',
      // Names are never reused, so the content behind a URL never changes.
      'Cache-Control': 'public, max-age=31536000, immutable',
    });
    // Asked directly rather than through req.fresh, which answers "stale" to any request saying
    // Cache-Control: no-cache (fetch adds it to every conditional request it is handed).
    const tags = (req.get('if-none-match') ?? '').split(',').map((t) => t.trim().replace(/^W\//, ''));
    if (tags.includes(file.etag) || tags.includes('*')) {
      res.status(304).end();
      return;
    }
    res.status(200).send(file.bytes);
  });

  return r;
}
