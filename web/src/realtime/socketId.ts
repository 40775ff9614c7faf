let socketId: string | undefined;

/** The id of this tab's realtime socket while it is connected (sent as X-Socket-Id). */
export const currentSocketId = (): string | undefined => socketId;
export function setSocketId(id: string | undefined): void {
  socketId = id;
}
