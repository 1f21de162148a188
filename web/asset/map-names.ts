/** Texture map roles (the names core/model/selection.ts gives them) as people read them; a name not listed is shown as the site wrote it. */
const NAMES: Record<string, string> = {
  diffuse: "Diffuse (colour)",
  normal_gl: "Normal (OpenGL)",
  normal_dx: "Normal (DirectX)",
  roughness: "Roughness",
  metalness: "Metalness",
  ao: "Ambient occlusion",
  arm: "AO + roughness + metalness",
  displacement: "Displacement",
  bump: "Bump",
  opacity: "Opacity",
  specular: "Specular",
  emission: "Emission",
  translucency: "Translucency",
};

export const mapName = (role: string): string => NAMES[role] ?? role;
