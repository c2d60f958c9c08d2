/**
 * A WebSocket client for tests that sends messages one at a time and waits
 * (bounded) for the ack or error each gets back.
 */
import WebSocket from 'ws';

export interface Asker {
  socket: WebSocket;
  /** Sends `message` (a string as is, as JSON text) and resolves with the next ack or error frame; rejects after `timeoutMs`. */
  ask(message: object | string, timeoutMs?: number): Promise<any>;
}

export async function connectAsker(url: string): Promise<Asker> {
  const socket = new WebSocket(url);
  const answers: any[] = [];
  socket.on('message', (data) => {
    const message = JSON.parse(String(data));
    if (!Array.isArray(message) && (message.type === 'ack' || message.type === 'error')) answers.push(message);
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const ask = async (message: object | string, timeoutMs = 10_000): Promise<any> => {
    const before = answers.length;
    socket.send(typeof message === 'string' ? message : JSON.stringify(message));
    for (let waited = 0; answers.length === before; waited += 10) {
      if (waited > timeoutMs) throw new Error(`no answer to ${typeof message === 'string' ? message.slice(0, 200) : JSON.stringify(message)} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return answers[before];
  };
  return { socket, ask };
}
