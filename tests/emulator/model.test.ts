/** The domain model driven without HTTP, on a clock the test owns. */
import { ClouddbModel } from "../../emulator/model/clouddb-model";
import { OffsetClock } from "../../emulator/model/clock";
import { ConflictError, InvalidRequestError, NotFoundError } from "../../emulator/model/errors";

function fixture() {
  let wall = Date.parse("2030-01-01T00:00:00Z");
  const clock = new OffsetClock(0, () => wall);
  const model = new ClouddbModel({ clock, clockScale: 1 });
  return { model, tick: (ms: number) => (wall += ms) };
}

describe("ClouddbModel without HTTP", () => {
  it("computes statuses from timestamps when read", () => {
    const { model, tick } = fixture();
    const s = model.perform("createService", { project: "p000000001" }, { name: "m" });
    expect(s.status).toBe("QUEUED");
    expect(s.created).toBe("2030-01-01T00:00:00.000Z");
    tick(2_000);
    expect(model.perform("getService", { project: "p000000001", service: s.service_id }).status).toBe("CONFIGURING");
    tick(5_000);
    expect(model.perform("getService", { project: "p000000001", service: s.service_id }).status).toBe("READY");
  });

  it("throws typed errors and changes nothing on failure", () => {
    const { model } = fixture();
    expect(() =>
      model.perform("createVpc", { project: "p000000001" }, { name: "n", cidr: "10.0.0.1/16", region_code: "us-east-1" }),
    ).toThrow(InvalidRequestError);
    expect(model.perform("listVpcs", { project: "p000000001" })).toEqual([]);
    expect(() => model.perform("getService", { project: "p000000001", service: "nothing123" })).toThrow(NotFoundError);
    const s = model.perform("createService", { project: "p000000001" }, { name: "m" });
    expect(() =>
      model.perform("resizeService", { project: "p000000001", service: s.service_id }, { cpu_millis: "1000", memory_gbs: "4" }),
    ).toThrow(ConflictError);
    expect(model.perform("getService", { project: "p000000001", service: s.service_id }).resources[0].spec.cpu_millis).toBe(500);
  });

  it("keeps projects apart", () => {
    const { model } = fixture();
    model.perform("createVpc", { project: "p000000001" }, { name: "n", cidr: "10.0.0.0/16", region_code: "us-east-1" });
    expect(model.perform("listVpcs", { project: "p000000002" })).toEqual([]);
  });
});
