import { isTrustedImage, type TrustedImages } from '@antidote/config';
import type { Image } from '../curriculum.model.js';
import type { ProblemList } from '../problem.js';
import type { Located } from './reference.rules.js';

/**
 * Privilege is the operator's: an image may ask for `flavor: trusted` (privileged pods, the default
 * runtime) only when the operator's `pods.trustedImages` allows it. Any other is a problem on the image.
 */
export function checkTrustedImages(images: readonly Located<Image>[], trusted: TrustedImages, problems: ProblemList): void {
  for (const { file, value: image } of images) {
    if (image.flavor !== 'trusted' || isTrustedImage(trusted, image.slug)) continue;
    const allowed = trusted.patterns.length > 0 ? trusted.patterns.join(', ') : 'none';
    problems.add(
      file,
      'trusted-image',
      `image "${image.slug}" asks for flavor trusted (privileged pods), which the operator has not allowed (pods.trustedImages: ${allowed}); add "${image.slug}" there to allow it, or make the image untrusted`,
      'flavor',
    );
  }
}
