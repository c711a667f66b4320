/** The records of a streamed HTTP response body, each ended by `separator` (a watch's lines, an event stream's blocks), as they come. */
export async function* streamRecords(response: Response, separator: string): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf(separator); end !== -1; end = buffer.indexOf(separator)) {
      yield buffer.slice(0, end);
      buffer = buffer.slice(end + separator.length);
    }
  }
}
