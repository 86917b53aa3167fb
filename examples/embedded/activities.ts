export async function reserve(orderId: string): Promise<string> {
  return `reservation-${orderId}`;
}

export async function charge(reservation: string, cents: number): Promise<string> {
  return `charged ${cents} for ${reservation}`;
}
