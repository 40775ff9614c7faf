/** Saves a blob under a name: files are fetched with the person's token, so a plain link would not do. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Saves a downloaded file under the name the server gave it (Content-Disposition), else the fallback. */
export function saveFile(blob: Blob, response: Response, fallback: string): void {
  const disposition = response.headers.get('content-disposition') ?? '';
  saveBlob(blob, /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? fallback);
}
