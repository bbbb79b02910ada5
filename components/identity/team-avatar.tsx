// A team's initial on a colour picked from its name, so teams are told apart at a glance.
const COLOURS = ["bg-orange-500", "bg-sky-500", "bg-emerald-500", "bg-violet-500", "bg-rose-500", "bg-amber-500", "bg-teal-500", "bg-indigo-500"];

export function colourFor(name: string): string {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return COLOURS[hash % COLOURS.length];
}

export function TeamAvatar({ name, size = "sm" }: { name: string; size?: "sm" | "md" }) {
  const box = size === "md" ? "size-8 text-sm rounded-lg" : "size-5 text-[11px] rounded";
  return (
    <span aria-hidden className={`inline-flex shrink-0 items-center justify-center font-semibold text-white uppercase ${box} ${colourFor(name)}`}>
      {name.charAt(0)}
    </span>
  );
}
