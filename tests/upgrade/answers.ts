/** What a test reads of the message that stops a delete or a replacement of a resource whose state does not say who made it. */
import type { Ownership } from "../../provider/framework/ownership";

/** The two commands the message prints, one per answer, as the user would copy them. */
export function answerCommands(message: string): Record<Ownership, string> {
  const made = /if this stack made it \([^)]*\): `([^`]+)`/.exec(message)?.[1];
  const adopted = /if this stack adopted it \([^)]*\): `([^`]+)`/.exec(message)?.[1];
  if (!made || !adopted) throw new Error(`the message prints no command for each answer: ${message}`);
  return { made, adopted };
}
