/**
 * Reads the server-sent events of a response as they arrive, for the stream of GET /v1/search
 * (server/routes/search-stream.ts): each event with its name, its data parsed as JSON, and when it
 * arrived. It reads what h3's EventStream writes (`event:` and `data:` lines, a blank line after
 * each event); comments, `id:` and `retry:` are not used there.
 */
export interface StreamEvent {
  event: string;
  data: unknown;
  /** performance.now() when the event's last byte was read. */
  at: number;
}

export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamEvent> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const field = (name: string) =>
        block
          .split("\n")
          .filter((line) => line.startsWith(`${name}: `))
          .map((line) => line.slice(name.length + 2))
          .join("\n");
      yield { event: field("event") || "message", data: JSON.parse(field("data")), at: performance.now() };
    }
  }
}

/** Every event of the response, to its end. */
export async function allEvents(res: Response): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const e of readEvents(res.body!)) events.push(e);
  return events;
}
