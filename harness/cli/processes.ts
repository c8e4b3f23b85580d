/**
 * The processes of a {@link CliStack}'s runs: every `pulumi` it runs goes through a launcher
 * of its own that notes the CLI's pid before it becomes the CLI (`exec`), so a test can kill
 * the CLI (kill -9, as a crash would) or the provider plugin the CLI started, and the stack
 * can end what a killed CLI left running.
 */
import * as fs from "fs";
import * as path from "path";
import { alive } from "../processes";
import { until } from "../until";

/**
 * Every process under `pid`, by each process's parent (/proc/<pid>/stat): the CLI is a Go
 * program, whose children may be started from any of its threads, so a thread's own list of
 * children (processes.ts `descendants`) misses some.
 */
export function processesUnder(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(
        fs
          .readFileSync(`/proc/${entry}/stat`, "utf8")
          .replace(/^.*\) /, "")
          .split(" ")[1],
      );
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const under = (p: number): number[] => (parents.get(p) ?? []).flatMap((c) => [c, ...under(c)]);
  return under(pid);
}

/** The plugin processes under the CLI `cli` (their command line runs the dynamic-provider host or a resource plugin). */
export function pluginProcesses(cli: number | undefined): number[] {
  if (cli === undefined) return [];
  return processesUnder(cli).filter((pid) => {
    try {
      return /dynamic-provider|pulumi-resource-/.test(fs.readFileSync(`/proc/${pid}/cmdline`, "utf8"));
    } catch {
      return false;
    }
  });
}

/** CPU time a process used so far, in clock ticks (Linux: /proc/<pid>/stat utime + stime). */
function cpuTime(pid: number): number {
  try {
    const fields = fs
      .readFileSync(`/proc/${pid}/stat`, "utf8")
      .replace(/^.*\) /, "")
      .split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** The CLI processes of one stack. */
export class CliProcesses {
  /** The folder holding `bin/pulumi` (the launcher), as the Automation API's `PulumiCommand` takes it. */
  readonly root: string;
  /** The launcher. */
  readonly command: string;
  private readonly pids: string;
  private orphans: number[] = [];

  constructor(dir: string, pulumi: string) {
    this.root = dir;
    this.command = path.join(dir, "bin", "pulumi");
    this.pids = path.join(dir, "pids");
    fs.mkdirSync(path.dirname(this.command), { recursive: true });
    fs.writeFileSync(this.command, `#!/bin/sh\necho $$ >> "${this.pids}"\nexec "${pulumi}" "$@"\n`, { mode: 0o755 });
  }

  /** Every CLI process started so far, oldest first. */
  private started(): number[] {
    return fs.existsSync(this.pids) ? fs.readFileSync(this.pids, "utf8").split("\n").filter(Boolean).map(Number) : [];
  }

  /** The CLI running now (the newest one alive), if any. */
  current(): number | undefined {
    return this.started().reverse().find(alive);
  }

  /** Kills the running CLI with SIGKILL; the plugins it started are left running, as after a crash. */
  killCli(): void {
    const cli = this.current();
    if (cli === undefined) return;
    this.orphans.push(...pluginProcesses(cli));
    process.kill(cli, "SIGKILL");
  }

  /**
   * Resolves once the plugins a killed CLI left are done with what they were doing: ended, or
   * idle (no CPU time used for a second), within 30 s. (The dynamic-provider host does not end
   * when its engine dies: it serves until it is killed.)
   */
  async orphansGone(): Promise<void> {
    let last = "";
    let since = Date.now();
    await until(
      "the orphaned plugins to be idle",
      async () => {
        const now = this.orphans.filter(alive).map(cpuTime).join(",");
        if (now !== last) [last, since] = [now, Date.now()];
        return now === "" || Date.now() - since >= 1_000 ? true : undefined;
      },
      30_000,
    ).catch(() => undefined);
  }

  /** Ends every process the stack's runs left (a killed CLI's plugins). */
  killAll(): void {
    for (const pid of [...this.orphans, ...this.started().flatMap((c) => [c, ...processesUnder(c)])]) {
      if (alive(pid)) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // gone meanwhile
        }
      }
    }
  }
}
