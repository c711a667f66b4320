import { createRequire } from 'node:module';

declare const __ANTIDOTE_BUILD_VERSION__: string | undefined;
declare const __ANTIDOTE_BUILD_SHA__: string | undefined;

/** The package version from source or compiled output; the bundle has it defined at build time. */
function packageVersion(): string {
  if (typeof __ANTIDOTE_BUILD_VERSION__ === 'string') return __ANTIDOTE_BUILD_VERSION__;
  try {
    return (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/** What build this is: version, and the commit the bundle was built from ("dev" when run from source). */
export const BUILD_INFO = {
  version: packageVersion(),
  sha: typeof __ANTIDOTE_BUILD_SHA__ === 'string' ? __ANTIDOTE_BUILD_SHA__ : 'dev',
};
