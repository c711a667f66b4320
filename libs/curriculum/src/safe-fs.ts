import type { Dirent, Stats } from 'node:fs';
import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { CurriculumLimits } from '@antidote/config';

/** One path that is not read (outside the root, a cycle, too deep, too big): a problem, the read goes on. */
export class UnsafePathError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/** A limit of the whole read was passed (bytes, entries, time): the read stops with this one problem. */
export class LimitError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

type OnUnsafe = (error: UnsafePathError) => void;

/**
 * The real path of `path` (symlinks resolved), refused with UnsafePathError when it leads outside
 * `realRoot` (itself a real path): the rule of every curriculum read, and of the files the api serves from it.
 */
export async function realPathInside(realRoot: string, path: string): Promise<string> {
  const real = await realpath(path);
  if (real !== realRoot && !real.startsWith(realRoot + sep)) {
    throw new UnsafePathError(path, `leads outside the curriculum directory (to ${real}); not followed`);
  }
  return real;
}

/** One walk of `find`: the real paths of the folders on the way down, and of every folder listed. */
interface Walk {
  accept: (name: string) => boolean;
  onUnsafe: OnUnsafe;
  ancestors: Set<string>;
  listed: Map<string, string>;
}

/**
 * Reads inside one root only: every path is resolved (symlinks included) and refused when it leads
 * outside the root; folders are tracked by real path so a symlink cycle is walked once; sizes, depth,
 * entries, total bytes and time are bounded so a hostile tree cannot exhaust memory or hang a reader.
 */
export class SafeFs {
  private entries = 0;
  private bytes = 0;
  private readonly deadline: number;

  private constructor(
    readonly root: string,
    readonly limits: CurriculumLimits,
    private readonly clock: () => number,
  ) {
    this.deadline = clock() + limits.seconds * 1000;
  }

  static async open(root: string, limits: CurriculumLimits, clock: () => number = Date.now): Promise<SafeFs> {
    return new SafeFs(await realpath(root), limits, clock);
  }

  relative(path: string): string {
    return relative(this.root, path) || '.';
  }

  /** The real path of `path`, checked to stay inside the root. */
  contained(path: string): Promise<string> {
    return realPathInside(this.root, path);
  }

  async exists(path: string): Promise<boolean> {
    try {
      await lstat(path);
      return true;
    } catch {
      return false;
    }
  }

  async readText(path: string, maxBytes: number): Promise<string> {
    this.checkTime(path);
    const real = await this.contained(path);
    const info = await stat(real);
    if (!info.isFile()) throw new UnsafePathError(path, 'is not a regular file');
    if (info.size > maxBytes) throw new UnsafePathError(path, `is ${info.size} bytes; the limit is ${maxBytes}`);
    this.bytes += info.size;
    if (this.bytes > this.limits.totalBytes) {
      throw new LimitError(
        path,
        `the curriculum holds more than ${this.limits.totalBytes} bytes to read (reached at this file); the limit is ${this.limits.totalBytes}`,
      );
    }
    return readFile(real, 'utf8');
  }

  /**
   * Files under `dir` whose name `accept`s, any depth, sorted. Symlinks are followed only when they stay
   * inside the root; the ones that do not, cycles and folders met twice are reported through `onUnsafe`.
   */
  async find(dir: string, accept: (name: string) => boolean, onUnsafe: OnUnsafe): Promise<string[]> {
    // The starting folder itself may be a symlink (`lessons -> /etc`): check it like any other entry.
    try {
      await this.contained(dir);
    } catch (error) {
      if (error instanceof UnsafePathError) {
        onUnsafe(error);
        return [];
      }
      // Anything else (absent, unreadable) is for readdir below to sort out.
    }
    return this.walk(dir, 0, { accept, onUnsafe, ancestors: new Set(), listed: new Map() });
  }

  private async walk(dir: string, depth: number, walk: Walk): Promise<string[]> {
    if (depth > this.limits.folderDepth) {
      walk.onUnsafe(new UnsafePathError(dir, `is nested deeper than ${this.limits.folderDepth} levels; not read`));
      return [];
    }
    const real = await realpath(dir).catch(() => dir);
    if (walk.ancestors.has(real)) {
      walk.onUnsafe(new UnsafePathError(dir, `is a symlink cycle: it leads back to ${this.relative(real)}; not followed`));
      return [];
    }
    const first = walk.listed.get(real);
    if (first !== undefined) {
      walk.onUnsafe(new UnsafePathError(dir, `is the same folder as ${this.relative(first)} (read already); not read twice`));
      return [];
    }
    let entries: Dirent[];
    try {
      entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (error) {
      // An absent folder is an empty one (reference §2.1); anything else (a file, no permission) is reported.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT')
        walk.onUnsafe(new UnsafePathError(dir, code === 'ENOTDIR' ? 'is not a directory' : `cannot be listed (${code ?? 'unknown error'})`));
      return [];
    }
    walk.ancestors.add(real);
    walk.listed.set(real, dir);
    const found: string[] = [];
    for (const entry of entries) found.push(...(await this.visit(join(dir, entry.name), entry, depth, walk)));
    walk.ancestors.delete(real);
    return found;
  }

  private async visit(path: string, entry: Dirent, depth: number, walk: Walk): Promise<string[]> {
    this.checkTime(path);
    if (++this.entries > this.limits.entries)
      throw new LimitError(path, `the curriculum has more than ${this.limits.entries} folder entries; the limit is ${this.limits.entries}`);
    try {
      let target: Dirent | Stats = entry;
      if (entry.isSymbolicLink()) {
        target = await stat(path);
        // A linked file that is never read is not followed either; folders and wanted files must stay inside.
        if (target.isFile() && !walk.accept(entry.name)) return [];
        await this.contained(path);
      }
      if (target.isDirectory()) return await this.walk(path, depth + 1, walk);
      if (target.isFile() && walk.accept(entry.name)) return [path];
    } catch (error) {
      if (error instanceof UnsafePathError) walk.onUnsafe(error);
      else if (error instanceof LimitError) throw error;
      else if ((error as NodeJS.ErrnoException).code === 'ELOOP') walk.onUnsafe(new UnsafePathError(path, 'is a symlink that leads to itself; not followed'));
    }
    return [];
  }

  private checkTime(path: string): void {
    if (this.clock() > this.deadline)
      throw new LimitError(
        path,
        `reading the curriculum took longer than ${this.limits.seconds} s (stopped at this file); the limit is ${this.limits.seconds} s`,
      );
  }
}
