/**
 * The few parts of three.js the previews call (three ships no types of its own; @types/three is
 * not a dependency): the loading manager's URL modifier, a renderer, a scene, a camera and the
 * HDR and EXR loaders.
 */
declare module "three" {
  export interface LoadingManager {
    setURLModifier(modifier: (url: string) => string): this;
  }
  export const DefaultLoadingManager: LoadingManager;
  export const EquirectangularReflectionMapping: number;
  export const ACESFilmicToneMapping: number;
  export class Texture {
    mapping: number;
    dispose(): void;
  }
  export class Scene {
    background: Texture | null;
  }
  export class PerspectiveCamera {
    constructor(fov: number, aspect: number, near: number, far: number);
    fov: number;
    aspect: number;
    rotation: { order: string; set(x: number, y: number, z: number): void };
    updateProjectionMatrix(): void;
  }
  export class WebGLRenderer {
    constructor(options: { canvas: HTMLCanvasElement; antialias?: boolean });
    toneMapping: number;
    setPixelRatio(ratio: number): void;
    setSize(width: number, height: number, updateStyle?: boolean): void;
    render(scene: Scene, camera: PerspectiveCamera): void;
    dispose(): void;
    forceContextLoss(): void;
  }
}

declare module "three/examples/jsm/loaders/EXRLoader.js" {
  import type { Texture } from "three";
  export class EXRLoader {
    loadAsync(url: string): Promise<Texture>;
  }
}

declare module "three/examples/jsm/loaders/HDRLoader.js" {
  import type { Texture } from "three";
  export class HDRLoader {
    loadAsync(url: string): Promise<Texture>;
  }
}
