/** What the page needs of its WebSocket (a fake stands in for it in tests). */
export type FrameTransport = Pick<WebSocket, 'send' | 'addEventListener'>;

/** What the frame relay (frame-relay.ts) tells the page about its socket. */
export type RelayEvent = 'open' | 'error' | 'close' | 'message';

/**
 * The WebSocket at `url`, opened and driven by the shared frame relay behind `port`
 * (frame-relay.ts), so that DevTools never sees its frames. A frame that owns its whole buffer is
 * transferred, not copied: the sender must not reuse it (FrameReader allocates a new one).
 */
export function relayTransport(port: MessagePort, url: string): FrameTransport {
  const events = new EventTarget();
  port.onmessage = ({ data }: MessageEvent<RelayEvent>) => events.dispatchEvent(new Event(data));
  port.start();
  port.postMessage(url);
  const send = (frame: Uint8Array): void => {
    const whole = frame.byteOffset === 0 && frame.byteLength === frame.buffer.byteLength;
    port.postMessage(frame, whole ? [frame.buffer as ArrayBuffer] : []);
  };
  return { send, addEventListener: events.addEventListener.bind(events) } as FrameTransport;
}

/**
 * The page's end of the frame channel: frames go to Node as binary WebSocket messages, and Node
 * acknowledges each one it has consumed, which paces how far ahead the page may render.
 */
export class FrameSocket {
  readonly opened: Promise<void>;
  private acked = 0;
  private ackWaiter: (() => void) | undefined;
  private cancelled = false;

  constructor(private readonly transport: FrameTransport) {
    transport.addEventListener('message', () => {
      this.acked++;
      this.ackWaiter?.();
    });
    this.opened = new Promise<void>((resolve, reject) => {
      transport.addEventListener('open', () => resolve(), { once: true });
      transport.addEventListener('error', () => reject(new Error('frame channel failed to open')), {
        once: true,
      });
    });
  }

  send(frame: Uint8Array): void {
    this.transport.send(frame);
  }

  /** Allows paced sending again after a cancel (a new job). */
  reset(): void {
    this.cancelled = false;
  }

  /** Stops a paced run: it throws before its next frame and no longer waits for acknowledgements. */
  cancel(): void {
    this.cancelled = true;
    this.ackWaiter?.();
  }

  /**
   * Renders and sends `frames` frames, never more than `window` ahead of Node's acknowledgements;
   * resolves with the number sent once Node acknowledged them all.
   */
  async sendPaced(frames: number, window: number, render: (i: number) => Uint8Array): Promise<number> {
    const start = this.acked;
    let sent = 0;
    const nextAck = (): Promise<void> => new Promise<void>((resolve) => (this.ackWaiter = resolve));
    for (let i = 0; i < frames; i++) {
      while (sent - (this.acked - start) >= window && !this.cancelled) await nextAck();
      if (this.cancelled) throw new Error('cancelled');
      this.send(render(i));
      sent++;
    }
    while (this.acked - start < sent && !this.cancelled) await nextAck();
    return sent;
  }
}
