/** The header every request to our server carries (and that configs for other clients spell out). */
export function bearerAuthorization(token: string): { Authorization: string } {
	return { Authorization: `Bearer ${token}` };
}
