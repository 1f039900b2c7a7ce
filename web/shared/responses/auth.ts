/** The signed-in administrator (GET /auth/me, POST /auth/login). */
export interface User {
  id: string;
  username: string;
  role: string;
}
