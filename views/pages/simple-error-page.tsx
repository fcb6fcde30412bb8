/**
 * The error page for requests the site refuses before any content is read (bad input, a method the
 * path does not have): no header, footer or data from the database, so it can always be shown.
 */
export interface SimpleErrorModel {
  status: number;
  title: string;
  message: string;
  css: string;
}

export function SimpleErrorPage({ status, title, message, css }: SimpleErrorModel) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{title}</title>
        <link rel="stylesheet" href={css} />
      </head>
      <body>
        <main id="maincontent" className="simple-error" data-status={status}>
          <h1>{title}</h1>
          <p>{message}</p>
          <p><a href="/">Go to the support home page</a></p>
        </main>
      </body>
    </html>
  );
}
