/** The bare address of a mailbox string: `Name <a@b>` -> `a@b`; a bare address is kept. */
export function addressOf(mailbox: string): string {
  const match = /<([^<>\s]+@[^<>\s]+)>\s*$/.exec(mailbox);
  return match?.[1] ?? mailbox.trim();
}
