import 'react';

// The Element Timing API's attribute (https://w3c.github.io/element-timing/): the browser reports when
// an element so named is painted (PerformanceObserver 'element'). React passes it through as written.
declare module 'react' {
  // Merged into React's own declaration, whose type parameter it must repeat.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface HTMLAttributes<T> {
    elementtiming?: string;
  }
}
