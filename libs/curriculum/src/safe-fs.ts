import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

export const LIMITS = {
  metaFileBytes: 1024 * 1024,
  guideBytes: 5 * 1024 * 1024,
  depth: 16,
  entries: 50_000,
};

export class UnsafePathError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Reads inside one root only: every path is resolved (symlinks included) and refused when it leads
 * outside the root; sizes, depth and entry counts are bounded so a hostile tree cannot exhaust memory.
 */
export class SafeFs {
  private entries = 0;

  private constructor(readonly root: string) {}

  static async open(root: string): Promise<SafeFs> {
    return new SafeFs(await realpath(root));
  }

  relative(path: string): string {
    return relative(this.root, path) || '.';
  }

  /** The real path of `path`, checked to stay inside the root. */
  async contained(path: string): Promise<string> {
    const real = await realpath(path);
    if (real !== this.root && !real.startsWith(this.root + sep)) {
      throw new UnsafePathError(path, `leads outside the curriculum directory (to ${real}); not followed`);
    }
    return real;
  }

  async exists(path: string): Promise<boolean> {
    try {
      await lstat(path);
      return true;
    } catch {
      return false;
    }
  }

  async isDirectory(path: string): Promise<boolean> {
    try {
      return (await stat(await this.contained(path))).isDirectory();
    } catch {
      return false;
    }
  }

  async readText(path: string, maxBytes: number): Promise<string> {
    const real = await this.contained(path);
    const info = await stat(real);
    if (!info.isFile()) throw new UnsafePathError(path, 'is not a regular file');
    if (info.size > maxBytes) throw new UnsafePathError(path, `is ${info.size} bytes; the limit is ${maxBytes}`);
    return readFile(real, 'utf8');
  }

  /**
   * Files under `dir` whose name `accept`s, any depth, sorted. Symlinks are followed only when they stay
   * inside the root; the ones that do not are reported through `onUnsafe`.
   */
  async find(dir: string, accept: (name: string) => boolean, onUnsafe: (error: UnsafePathError) => void, depth = 0): Promise<string[]> {
    if (depth > LIMITS.depth) {
      onUnsafe(new UnsafePathError(dir, `is nested deeper than ${LIMITS.depth} levels; not read`));
      return [];
    }
    if (depth === 0) {
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
    }
    let names: string[];
    try {
      names = (await readdir(dir)).sort();
    } catch (error) {
      // An absent folder is an empty one (reference §2.1); anything else (a file, no permission) is reported.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') onUnsafe(new UnsafePathError(dir, code === 'ENOTDIR' ? 'is not a directory' : `cannot be listed (${code ?? 'unknown error'})`));
      return [];
    }
    const found: string[] = [];
    for (const name of names) {
      if (++this.entries > LIMITS.entries) {
        if (this.entries === LIMITS.entries + 1) onUnsafe(new UnsafePathError(dir, `the curriculum has more than ${LIMITS.entries} entries; the rest is not read`));
        return found;
      }
      const path = join(dir, name);
      try {
        const info = await lstat(path);
        let target = info;
        if (info.isSymbolicLink()) {
          target = await stat(path);
          // A linked file that is never read is not followed either; folders and wanted files must stay inside.
          if (target.isFile() && !accept(name)) continue;
          await this.contained(path);
        }
        if (target.isDirectory()) found.push(...(await this.find(path, accept, onUnsafe, depth + 1)));
        else if (target.isFile() && accept(name)) found.push(path);
      } catch (error) {
        if (error instanceof UnsafePathError) onUnsafe(error);
      }
    }
    return found;
  }
}
