import { route } from '@react-router/dev/routes';

export default [
  route('chat/:id', 'routes/chat.jsx'),
  route('boom', 'routes/boom.jsx'),
  route('about', 'routes/about.jsx'),
  route('go', 'routes/go.jsx'),
];
