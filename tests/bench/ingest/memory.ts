/** Peak resident memory of this process and of the platform's and brokers' processes. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

// ---------------------------------------------------------------------------------------------- memory
function rssOfPid(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
export function pidsOf(name: string): number[] {
  try {
    return execFileSync('pgrep', ['-x', name]).toString().trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
/** Peak RSS of this process and of the named server processes while `fn` runs. */
export class RssSampler {
  private timer: NodeJS.Timeout | undefined;
  peakSelf = 0;
  peakServers = 0;
  /** Server processes by name (every process of that name) or by pid. */
  constructor(private readonly servers: Array<string | number>) {}
  start(): void {
    const pids = this.servers.flatMap((server) => (typeof server === 'number' ? [server] : pidsOf(server)));
    const sample = () => {
      this.peakSelf = Math.max(this.peakSelf, process.memoryUsage.rss());
      this.peakServers = Math.max(
        this.peakServers,
        pids.reduce((sum, pid) => sum + rssOfPid(pid), 0),
      );
    };
    sample();
    this.timer = setInterval(sample, 100);
  }
  stop(): void {
    clearInterval(this.timer);
  }
}
export const mb = (bytes: number) => `${Math.round(bytes / 1048576)} MB`;
