/**
 * Server-Sent Events read from a response body (a POST's answer, which `EventSource` cannot make):
 * each `event:` with its `data:` JSON, yielded as soon as its blank line has arrived.
 */
export interface StreamedEvent {
  event: string;
  data: unknown;
}

export async function* readEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamedEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
      let end = buffered.indexOf('\n\n');
      while (end >= 0) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        end = buffered.indexOf('\n\n');
        let event = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith('event:')) event = line.slice(6).trim();
          else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
        }
        if (data.length) yield { event, data: JSON.parse(data.join('\n')) as unknown };
      }
    }
  } finally {
    reader.releaseLock();
  }
}
