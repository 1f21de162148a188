/** An asset's own page (placeholder until the asset view lands). */
export function AssetPage({ id }: { id: string }) {
  return (
    <main>
      <h1>{id}</h1>
    </main>
  );
}
