// The studio page's frame relay: a shared worker that owns the page's WebSocket to Node and sends
// what the page posts to it. Bundled on its own (page-bundle.ts) and served beside the page.
//
// Why a worker at all: Playwright enables the DevTools Network domain on every page and dedicated
// worker it drives, and Chromium then reports each WebSocket message a page sends as an event
// carrying the payload base64-encoded — for a binary frame, the renderer encodes every byte, the
// browser process forwards the JSON and Node (Playwright) parses it, about 120 ms of CPU per 1.6 MB
// frame on two cores, more than sending it. Playwright leaves shared workers alone, so a socket
// opened there is not reported.

import type { RelayEvent } from './frame-socket';

interface ConnectEvent {
  ports: readonly MessagePort[];
}

(globalThis as unknown as { onconnect: (event: ConnectEvent) => void }).onconnect = (event) => {
  const port = event.ports[0]!;
  const tell = (message: RelayEvent): void => port.postMessage(message);
  let socket: WebSocket | undefined;
  port.onmessage = ({ data }: MessageEvent<string | Uint8Array>) => {
    if (typeof data !== 'string') {
      socket?.send(data);
      return;
    }
    // A string opens the socket at that URL (sent once, first).
    socket = new WebSocket(data);
    socket.binaryType = 'arraybuffer';
    socket.onopen = () => tell('open');
    socket.onerror = () => tell('error');
    socket.onclose = () => tell('close');
    socket.onmessage = () => tell('message');
  };
  port.start();
};
