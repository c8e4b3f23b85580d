/**
 * The scrubber's search (provider/client/secretForms.ts `SecretIndex`): one pass over a text
 * for every registered secret finds what a search for each secret alone found, and the
 * scrubber keeps its promises with as many secrets as a large stack registers.
 */
import { REDACTED, redact, registerSecret } from "../../provider/client/redact";
import { maskSpans, SecretIndex, secretSpans, type Span } from "../../provider/client/secretForms";

/** The search for each secret alone, as the scrubber made it before the index: each form's non-overlapping places, left to right. */
function eachAlone(text: string, secrets: readonly string[]): Span[] {
  const spans: Span[] = [];
  for (const secret of secrets)
    for (let at = text.indexOf(secret); at >= 0; at = text.indexOf(secret, at + secret.length))
      spans.push({ start: at, end: at + secret.length });
  return spans;
}

/** A seeded generator (mulberry32), so that a failure names a case that can be run again. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const word = (random: () => number, alphabet: string, length: number): string =>
  Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join("");

/** Spans in a canonical order, to compare two searches whatever order each found them in. */
const sorted = (spans: Span[]): string[] => spans.map((s) => `${s.start}-${s.end}`).sort();

describe("the scrubber's index of secrets", () => {
  it("finds what a search for each secret alone finds: overlapping and repeating secrets, shared beginnings, one code unit", () => {
    // Secrets under 8 characters have no base64 form: their one form is themselves, which the search alone looks for.
    for (let seed = 1; seed <= 300; seed++) {
      const random = seeded(seed);
      const alphabet = seed % 3 === 0 ? "ab" : seed % 3 === 1 ? "abc%" : "aé😀b";
      const secrets = Array.from({ length: 1 + Math.floor(random() * 6) }, () => word(random, alphabet, 1 + Math.floor(random() * 6)));
      const text = word(random, alphabet, Math.floor(random() * 60));
      const index = SecretIndex.of(secrets);
      const found: Span[] = [];
      index.search(text, (start, end) => found.push({ start, end }));
      // Spans found twice (two secrets alike) mask as once: compared as sets.
      expect({ seed, text, secrets, found: [...new Set(sorted(found))] }).toEqual({
        seed,
        text,
        secrets,
        found: [...new Set(sorted(eachAlone(text, secrets)))],
      });
      expect(maskSpans(text, secretSpans(text, [index]), "*")).toBe(maskSpans(text, eachAlone(text, secrets), "*"));
    }
  });

  it("files a secret added twice once, and counts secrets, not forms", () => {
    const index = SecretIndex.of(["hunter2-password", "hunter2-password", "swordfish"]);
    expect(index.size).toBe(2);
    const found: Span[] = [];
    index.search("hunter2-password", (start, end) => found.push({ start, end }));
    expect(found).toEqual([{ start: 0, end: 16 }]);
  });

  it("with a thousand passwords registered, scrubs each one, in each form it comes back in, from a message that carries it, and nothing else", () => {
    const random = seeded(44);
    const passwords = Array.from({ length: 1_000 }, () =>
      word(random, "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789+/=&", 20),
    );
    for (const p of passwords) registerSecret(p);
    for (const p of [passwords[0], passwords[499], passwords[999]]) {
      const b64 = Buffer.from(`admin:${p}`).toString("base64");
      const message = `GET /v1/x?pw=${encodeURIComponent(p)} answered 404 {"echo":${JSON.stringify(p)}} Basic ${b64} (raw ${p})`;
      const scrubbed = redact(message);
      expect(scrubbed).not.toContain(p);
      expect(scrubbed).not.toContain(encodeURIComponent(p));
      expect(scrubbed).not.toContain(b64.slice(8, -4));
      expect(scrubbed.startsWith("GET /v1/x?pw=")).toBe(true);
      expect(scrubbed).toContain("answered 404");
      expect(scrubbed.split(REDACTED).length - 1).toBeGreaterThanOrEqual(4);
    }
    expect(redact("Service svc-0001 was not found (404)")).toBe("Service svc-0001 was not found (404)");
  });
});
