/** The search page (placeholder until the search experience lands). */
export function SearchPage({ location }: { location: URL }) {
  return (
    <main>
      <h1>asset-search</h1>
      <p>{location.search}</p>
    </main>
  );
}
