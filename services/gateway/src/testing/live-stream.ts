/** A browser's open GET /api/live, read as text as it arrives. Used only by tests. */
export interface LiveStream {
  response: Response;
  /** Everything read so far. */
  readonly received: string;
  /** Reads on until `text` has arrived. */
  readUntil(text: string): Promise<void>;
  close(): void;
}

export async function openLiveStream(url: string): Promise<LiveStream> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let received = '';
  return {
    response,
    get received() {
      return received;
    },
    async readUntil(text) {
      while (!received.includes(text)) received += decoder.decode((await reader.read()).value);
    },
    close: () => controller.abort(),
  };
}
