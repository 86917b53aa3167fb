/** The page of an address the UI has no page for. */
export function NotFoundPage({ path }: { path: string }) {
  return (
    <section class="not-found" data-testid="not-found">
      <h2>404: no page here</h2>
      <p>The web UI has no page at <code>{path}</code>.</p>
      <p><a href="/">Go to the workflows list</a></p>
    </section>
  );
}
