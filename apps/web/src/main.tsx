import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import '@/app/styles.css';

const container = document.getElementById('root');
if (container === null) throw new Error('The page has no #root element to mount the app in');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
