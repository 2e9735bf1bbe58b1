export const metadata = { title: 'obs + Next.js example' };

/** Plain HTML: no web fonts, so the build needs no network. */
export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '2rem auto' }}>{children}</body>
    </html>
  );
}
