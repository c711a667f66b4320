import { realpath, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { realPathInside, UnsafePathError } from '@antidote/curriculum';
import type { DataManager } from '@antidote/data';

/** The media a guide shows; anything else in a lesson's folder (configs, meta files, guides) is never served. */
const MEDIA_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.svg': 'image/svg+xml',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
};

export const LESSON_FILES = /^\/web\/lessons\/([a-z0-9-]{1,253})\/files\/(.+)$/;
/** A name of a folder or file: no dot first (so no `.`, `..` or dot file), no separators, bounded. */
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_. -]{0,127}$/;
const MAX_SEGMENTS = 16;
/** A file opened by itself (an SVG in a tab) runs no script and loads nothing: a sandbox of its own. */
const FILE_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox";

/** The path's segments, decoded and checked; undefined for anything else. */
export function mediaPathOf(encoded: string): string[] | undefined {
  const segments = encoded.split('/');
  if (segments.length > MAX_SEGMENTS) return undefined;
  try {
    const decoded = segments.map((segment) => decodeURIComponent(segment));
    return decoded.every((segment) => SEGMENT.test(segment)) && MEDIA_TYPES[extname(decoded.at(-1)!).toLowerCase()] ? decoded : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `GET /web/lessons/<slug>/files/<path>`: an image or video of a lesson, read from its folder in the
 * curriculum (`curriculumDir`) as the import reads it: read-only, the real path inside the curriculum
 * (a symlink leading out is refused), a regular file of at most `maxBytes`, media types only. Guides
 * name them by a path relative to their stage folder; the page turns that into this URL.
 */
export function lessonFiles(data: Pick<DataManager, 'curriculum'>, curriculumDir: string, maxBytes: number): RequestHandler {
  const find = async (slug: string, segments: string[]): Promise<string | undefined> => {
    const lesson = await data.curriculum.findLesson(slug);
    if (!lesson) return undefined;
    const real = await realPathInside(await realpath(curriculumDir), join(curriculumDir, lesson.lessonDir, ...segments));
    const info = await stat(real);
    return info.isFile() && info.size <= maxBytes && MEDIA_TYPES[extname(real).toLowerCase()] ? real : undefined;
  };
  return (request: Request, response: Response, next: NextFunction): void => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return next();
    const match = LESSON_FILES.exec(request.path);
    if (!match) return next();
    const segments = mediaPathOf(match[2]);
    const notFound = (): void => void response.status(404).type('text/plain').send('no such lesson file\n');
    if (!segments) return notFound();
    find(match[1], segments).then(
      (real) => {
        if (!real) return notFound();
        response.setHeader('Content-Security-Policy', FILE_CSP);
        response.setHeader('X-Content-Type-Options', 'nosniff');
        response.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
        const headers = { 'Content-Type': MEDIA_TYPES[extname(real).toLowerCase()] };
        response.sendFile(real, { maxAge: '5m', dotfiles: 'allow', headers }, (error) => void (error && !response.headersSent && notFound()));
      },
      // Absent, unreadable, or leading outside the curriculum: not found, whichever it was.
      (error: unknown) =>
        error instanceof UnsafePathError || (error instanceof Error && 'code' in error)
          ? notFound()
          : void response.status(503).type('text/plain').send('lesson files cannot be read right now; try again\n'),
    );
  };
}
