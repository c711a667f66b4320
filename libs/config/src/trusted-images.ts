/**
 * The operator's allow list of privileged images (`pods.trustedImages`): which curriculum images may run
 * with `flavor: trusted` (privileged, the cluster's default runtime). Each entry is an image's name or a
 * glob (`*` any run of characters, `?` one), matched whole against the image's slug (`vqfx`) and its
 * repository (`<imageOrg>/<slug>`, e.g. `antidotelabs/vqfx`). Empty (the default): no image may.
 */
export interface TrustedImages {
  patterns: readonly string[];
  imageOrg: string;
}

const globToRegExp = (glob: string): RegExp =>
  new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );

/** Whether the operator lets image `slug` run privileged. */
export function isTrustedImage(trusted: TrustedImages, slug: string): boolean {
  const names = [slug, `${trusted.imageOrg}/${slug}`];
  return trusted.patterns.some((pattern) => {
    const glob = globToRegExp(pattern);
    return names.some((name) => glob.test(name));
  });
}

/** The allow list of a configuration. */
export const trustedImagesOf = (config: { imageOrg: string; pods: { trustedImages: readonly string[] } }): TrustedImages => ({
  patterns: config.pods.trustedImages,
  imageOrg: config.imageOrg,
});
