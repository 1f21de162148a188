/**
 * An HDRI as a panorama to look around in: the equirectangular image as the scene's background,
 * a camera at its centre turned by dragging, the arrow keys or the wheel (zoom). three.js decodes
 * both .hdr and .exr (model-viewer's skybox reads .hdr only). Loaded when an HDRI is opened, never before.
 */
import { ACESFilmicToneMapping, EquirectangularReflectionMapping, PerspectiveCamera, Scene, type Texture, WebGLRenderer } from "three";
import { EXRLoader } from "three/examples/jsm/loaders/EXRLoader.js";
import { HDRLoader } from "three/examples/jsm/loaders/HDRLoader.js";

export interface Panorama {
  dispose(): void;
}

const STEP = Math.PI / 18; // 10° per arrow key
const MIN_FOV = 30;
const MAX_FOV = 100;
const MAX_PITCH = Math.PI / 2 - 0.01;

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

/**
 * Shows the panorama at `url` in `canvas`, turned by pointer, wheel and keys on `controls` (the
 * focusable element around it); rejects when the file cannot be fetched or decoded (the caller
 * shows the thumbnail).
 */
export async function showPanorama(canvas: HTMLCanvasElement, controls: HTMLElement, url: string, format: "hdr" | "exr"): Promise<Panorama> {
  const loader = format === "exr" ? new EXRLoader() : new HDRLoader();
  const texture: Texture = await loader.loadAsync(url);
  texture.mapping = EquirectangularReflectionMapping;

  const renderer = new WebGLRenderer({ canvas, antialias: true });
  renderer.toneMapping = ACESFilmicToneMapping;
  renderer.setPixelRatio(Math.min(devicePixelRatio, 2));
  const scene = new Scene();
  scene.background = texture;
  const camera = new PerspectiveCamera(75, 1, 0.1, 10);
  camera.rotation.order = "YXZ";

  let yaw = 0;
  let pitch = 0;
  let frame = 0;
  const draw = () => {
    frame = 0;
    camera.rotation.set(pitch, yaw, 0);
    renderer.render(scene, camera);
  };
  const redraw = () => {
    frame ||= requestAnimationFrame(draw);
  };
  const resize = () => {
    const { clientWidth: w, clientHeight: h } = canvas;
    if (!w || !h) return;
    renderer.setSize(w, h, false);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
    redraw();
  };
  const turn = (dYaw: number, dPitch: number) => {
    yaw += dYaw;
    pitch = clamp(pitch + dPitch, -MAX_PITCH, MAX_PITCH);
    redraw();
  };
  const zoom = (dFov: number) => {
    camera.fov = clamp(camera.fov + dFov, MIN_FOV, MAX_FOV);
    camera.updateProjectionMatrix();
    redraw();
  };

  let drag: { x: number; y: number } | undefined;
  const down = (e: PointerEvent) => {
    drag = { x: e.clientX, y: e.clientY };
    controls.setPointerCapture(e.pointerId);
  };
  const move = (e: PointerEvent) => {
    if (!drag) return;
    // A drag across the canvas turns the view by about its field of view.
    const perPixel = (camera.fov * Math.PI) / 180 / canvas.clientHeight;
    turn((e.clientX - drag.x) * perPixel, (e.clientY - drag.y) * perPixel);
    drag = { x: e.clientX, y: e.clientY };
  };
  const up = () => {
    drag = undefined;
  };
  const wheel = (e: WheelEvent) => {
    e.preventDefault();
    zoom(Math.sign(e.deltaY) * 5);
  };
  const keys: Record<string, () => void> = {
    ArrowLeft: () => turn(STEP, 0),
    ArrowRight: () => turn(-STEP, 0),
    ArrowUp: () => turn(0, STEP),
    ArrowDown: () => turn(0, -STEP),
    "+": () => zoom(-10),
    "=": () => zoom(-10),
    "-": () => zoom(10),
  };
  const key = (e: KeyboardEvent) => {
    const action = keys[e.key];
    if (!action) return;
    e.preventDefault();
    action();
  };
  controls.addEventListener("pointerdown", down);
  controls.addEventListener("pointermove", move);
  controls.addEventListener("pointerup", up);
  controls.addEventListener("pointercancel", up);
  controls.addEventListener("wheel", wheel, { passive: false });
  controls.addEventListener("keydown", key);
  const observer = new ResizeObserver(resize);
  observer.observe(canvas);
  resize();
  draw();

  return {
    dispose() {
      cancelAnimationFrame(frame);
      observer.disconnect();
      controls.removeEventListener("pointerdown", down);
      controls.removeEventListener("pointermove", move);
      controls.removeEventListener("pointerup", up);
      controls.removeEventListener("pointercancel", up);
      controls.removeEventListener("wheel", wheel);
      controls.removeEventListener("keydown", key);
      texture.dispose();
      renderer.dispose();
      // Browsers keep a handful of WebGL contexts: one per opened HDRI would soon evict the others.
      renderer.forceContextLoss();
    },
  };
}
