import { h } from './dom.js';
import { lessonFileUrl } from './lesson-files.js';

/** A dialog showing `content`, closed by its button, Escape or a click outside it. */
function dialog(title, content) {
  const box = h(
    'dialog',
    { class: 'media-dialog', 'aria-label': title },
    h('div', { class: 'dialog-head' }, h('h2', {}, title), h('button', { type: 'button', onclick: () => box.close() }, 'Close')),
    content,
  );
  box.addEventListener('click', (event) => event.target === box && box.close());
  box.addEventListener('close', () => box.remove());
  document.body.append(box);
  box.showModal();
}

/** A video URL as a player: YouTube and Vimeo pages as their embeds, video files in a <video>. */
function player(url, title) {
  const youtube = /^https:\/\/(?:www\.)?(?:youtube\.com\/(?:watch\?v=|embed\/)|youtu\.be\/)([\w-]{6,20})/.exec(url);
  const vimeo = /^https:\/\/(?:player\.)?vimeo\.com\/(?:video\/)?(\d+)/.exec(url);
  if (!youtube && !vimeo && /\.(mp4|webm)(\?|$)/i.test(url)) return h('video', { src: url, controls: true, class: 'media' });
  const src = youtube ? `https://www.youtube-nocookie.com/embed/${youtube[1]}` : vimeo ? `https://player.vimeo.com/video/${vimeo[1]}` : url;
  return h('iframe', {
    src,
    title,
    class: 'media video',
    allow: 'fullscreen; picture-in-picture',
    sandbox: 'allow-scripts allow-same-origin allow-presentation',
  });
}

/**
 * The lesson's diagram and video, as antidote-web offered them: buttons opening a
 * dialog. A relative diagram path is the lesson's own file; https URLs as written.
 */
export function mediaButtons(lesson) {
  const name = lesson.Name || lesson.Slug;
  const diagram = lesson.Diagram && lessonFileUrl(lesson.Slug, lesson.Diagram);
  return [
    diagram
      ? h(
          'button',
          {
            type: 'button',
            class: 'diagram-button',
            onclick: () => dialog(`Diagram — ${name}`, h('img', { src: diagram, alt: `Diagram of the lab of ${name}`, class: 'media' })),
          },
          'Diagram',
        )
      : null,
    videoButton(lesson, lesson.Video, `Video — ${name}`, 'Video'),
  ];
}

/** A button opening `url` (the lesson's or a stage's video) in a dialog; none without a usable URL. */
export function videoButton(lesson, url, title, label) {
  const src = url?.trim() && lessonFileUrl(lesson.Slug, url);
  return src ? h('button', { type: 'button', class: 'video-button', onclick: () => dialog(title, player(src, title)) }, label) : null;
}
