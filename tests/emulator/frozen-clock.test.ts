/**
 * `frozenClock` (`--frozen-clock`): the emulator clock moves only when the control path
 * advances it, so a state lasts as long as a test needs however slow the machine.
 */
import { parseCliArgs } from "../../emulator/cli-args";
import { useEmulator } from "./support/emulator-api";

const api = useEmulator({ clockScale: 1, frozenClock: true });

const emulatorTime = async (): Promise<number> => Date.parse((await api.control("GET", "/clock")).body.emulatorTime as string);

describe("a frozen emulator clock", () => {
  it("stands still in real time and moves by exactly what the control path advances", async () => {
    const s = await api.createService();
    const before = await emulatorTime();
    await new Promise((r) => setTimeout(r, 2_100)); // longer than QUEUED lasts on a running clock
    expect(await emulatorTime()).toBe(before);
    expect((await api.call("GET", api.p(`/services/${s.service_id}`))).body.status).toBe("QUEUED");
    await api.advance(2_000);
    expect(await emulatorTime()).toBe(before + 2_000);
    expect((await api.call("GET", api.p(`/services/${s.service_id}`))).body.status).toBe("CONFIGURING");
  });

  it("is asked for with --frozen-clock on the command line", () => {
    expect(parseCliArgs(["--frozen-clock"])).toEqual({ kind: "run", options: { port: 8787, frozenClock: true } });
    expect(parseCliArgs([])).toEqual({ kind: "run", options: { port: 8787 } });
  });
});
