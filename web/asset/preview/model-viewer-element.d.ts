/** `<model-viewer>` in TSX: the attributes the model preview sets (the element itself comes from @google/model-viewer). */
import "preact";

declare module "preact" {
  namespace JSX {
    interface IntrinsicElements {
      "model-viewer": HTMLAttributes<HTMLElement> & {
        src?: string;
        poster?: string;
        alt?: string;
        "camera-controls"?: boolean;
        "environment-image"?: string;
        "shadow-intensity"?: string;
        "interaction-prompt"?: "auto" | "none";
        "touch-action"?: string;
      };
    }
  }
}
