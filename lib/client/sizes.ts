// Sizes as the console shows them: parameters in compact form ("494M", "8.8M"), bytes in decimal
// units as model files are usually quoted ("35.2 MB", "1.9 GB").

const compact = new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 });

export const formatCount = (n: number): string => compact.format(n);

const BYTE_UNITS = ["B", "kB", "MB", "GB", "TB"];

export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 2 : 1)} ${BYTE_UNITS[unit]}`;
}
