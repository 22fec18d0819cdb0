export function parseInt8(text: string): number;
export function parseDate(text: string): string;
