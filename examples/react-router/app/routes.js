import { index, route } from '@react-router/dev/routes';

export default [
  index('routes/home.jsx'),
  route('chat/:id', 'routes/chat.jsx'),
  route('api/stream', 'routes/stream.js'),
  route('boom', 'routes/boom.jsx'),
];
