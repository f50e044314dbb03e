import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import '@/app/styles.css';
import { startTheme } from '@/lib/theme/theme';

// Before the first render, so the first paint is already in the chosen theme (the CSP bans inline scripts).
startTheme();

const container = document.getElementById('root');
if (container === null) throw new Error('The page has no #root element to mount the app in');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
