// RapiDoc's custom element (components/api-reference), typed for JSX: its attributes are strings.
import type { CSSProperties } from "react";

declare module "react" {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      "rapi-doc": { style?: CSSProperties; [attribute: `${string}-${string}`]: string } & Record<string, unknown>;
    }
  }
}
