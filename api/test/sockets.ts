import { type Socket, io } from 'socket.io-client';
import { SOCKET_PATH } from '../src/realtime/server.js';

/**
 * Sockets opened like the PWA's but without reconnecting, so a disconnect stays visible; each is
 * kept until `closeAll`.
 */
export class TestSockets {
  private readonly open: Socket[] = [];

  /** A socket on the server at `url`, once connected (rejects if the server refuses it). */
  async connect(url: string, token: string): Promise<Socket> {
    const socket = io(url, { path: SOCKET_PATH, transports: ['websocket'], auth: { token }, reconnection: false, forceNew: true });
    this.open.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return socket;
  }

  closeAll(): void {
    this.open.forEach((socket) => socket.close());
  }
}

/** Resolves with the reason once the server drops the socket; rejects if it is still connected after a while. */
export function disconnection(socket: Socket, withinMs = 5_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the socket is still connected')), withinMs);
    socket.once('disconnect', (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });
}
