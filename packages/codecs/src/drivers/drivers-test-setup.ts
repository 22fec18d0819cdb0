/** A frame written as spaced hex (`'01 02 FF'`), as the driver docs show them, in bytes. */
export const hex = (s: string) => Uint8Array.from(Buffer.from(s.replace(/ /g, ''), 'hex'));
