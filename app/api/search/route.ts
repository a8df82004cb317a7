import { searchRoute } from "@/features/search";

export const GET = searchRoute;
