// Pools of realistic data: Brazilian names, companies, e-mail domains, cities with their area
// codes and districts, streets, and the post office agencies orders are dropped off at.
import type { SeededRandom } from "../random";

export const FIRST_NAMES = [
  "Ana",
  "João",
  "Maria",
  "José",
  "Francisca",
  "Antônio",
  "Adriana",
  "Carlos",
  "Juliana",
  "Paulo",
  "Márcia",
  "Pedro",
  "Fernanda",
  "Lucas",
  "Patrícia",
  "Marcos",
  "Aline",
  "Luiz",
  "Sandra",
  "Gabriel",
  "Camila",
  "Rafael",
  "Beatriz",
  "Daniel",
  "Letícia",
  "Bruno",
  "Larissa",
  "Eduardo",
  "Vanessa",
  "Felipe",
  "Tatiane",
  "Rodrigo",
  "Jéssica",
  "Gustavo",
  "Renata",
  "Thiago",
  "Bianca",
  "Mateus",
  "Cláudia",
  "Vinícius",
];
export const SURNAMES = [
  "Silva",
  "Santos",
  "Oliveira",
  "Souza",
  "Rodrigues",
  "Ferreira",
  "Alves",
  "Pereira",
  "Lima",
  "Gomes",
  "Costa",
  "Ribeiro",
  "Martins",
  "Carvalho",
  "Almeida",
  "Lopes",
  "Soares",
  "Fernandes",
  "Vieira",
  "Barbosa",
  "Rocha",
  "Dias",
  "Nascimento",
  "Andrade",
  "Moreira",
  "Nunes",
  "Marques",
  "Machado",
  "Mendes",
  "Freitas",
  "Cardoso",
  "Ramos",
  "Gonçalves",
  "Santana",
  "Teixeira",
  "Araújo",
  "Pinto",
  "Correia",
  "Moura",
  "Cavalcanti",
];
export const COMPANY_WORDS = ["Comercial", "Distribuidora", "Mercadinho", "Papelaria", "Empório", "Atacadão", "Casa", "Oficina"];
export const COMPANY_SUFFIXES = ["Ltda", "ME", "EIRELI", "S.A."];
export const EMAIL_DOMAINS = ["example.com", "example.com.br", "example.net", "example.org"];

export interface City {
  name: string;
  state: string;
  ddd: string;
  zipPrefix: string;
  districts: readonly string[];
  latitude: number;
  longitude: number;
}

export const CITIES: readonly City[] = [
  {
    name: "São Paulo",
    state: "SP",
    ddd: "11",
    zipPrefix: "01",
    districts: ["Bela Vista", "Pinheiros", "Mooca", "Santana", "Vila Mariana"],
    latitude: -23.5505,
    longitude: -46.6333,
  },
  {
    name: "Campinas",
    state: "SP",
    ddd: "19",
    zipPrefix: "13",
    districts: ["Cambuí", "Taquaral", "Barão Geraldo"],
    latitude: -22.9099,
    longitude: -47.0626,
  },
  {
    name: "Rio de Janeiro",
    state: "RJ",
    ddd: "21",
    zipPrefix: "20",
    districts: ["Copacabana", "Tijuca", "Botafogo", "Méier"],
    latitude: -22.9068,
    longitude: -43.1729,
  },
  {
    name: "Niterói",
    state: "RJ",
    ddd: "21",
    zipPrefix: "24",
    districts: ["Icaraí", "Centro", "Santa Rosa"],
    latitude: -22.8832,
    longitude: -43.1034,
  },
  {
    name: "Belo Horizonte",
    state: "MG",
    ddd: "31",
    zipPrefix: "30",
    districts: ["Savassi", "Funcionários", "Pampulha"],
    latitude: -19.9167,
    longitude: -43.9345,
  },
  {
    name: "Curitiba",
    state: "PR",
    ddd: "41",
    zipPrefix: "80",
    districts: ["Batel", "Água Verde", "Centro Cívico"],
    latitude: -25.4284,
    longitude: -49.2733,
  },
  {
    name: "Porto Alegre",
    state: "RS",
    ddd: "51",
    zipPrefix: "90",
    districts: ["Moinhos de Vento", "Menino Deus", "Cidade Baixa"],
    latitude: -30.0346,
    longitude: -51.2177,
  },
  {
    name: "Florianópolis",
    state: "SC",
    ddd: "48",
    zipPrefix: "88",
    districts: ["Trindade", "Centro", "Lagoa da Conceição"],
    latitude: -27.5954,
    longitude: -48.548,
  },
  {
    name: "Salvador",
    state: "BA",
    ddd: "71",
    zipPrefix: "40",
    districts: ["Barra", "Pituba", "Rio Vermelho"],
    latitude: -12.9714,
    longitude: -38.5014,
  },
  {
    name: "Recife",
    state: "PE",
    ddd: "81",
    zipPrefix: "50",
    districts: ["Boa Viagem", "Casa Forte", "Graças"],
    latitude: -8.0476,
    longitude: -34.877,
  },
  {
    name: "Fortaleza",
    state: "CE",
    ddd: "85",
    zipPrefix: "60",
    districts: ["Aldeota", "Meireles", "Benfica"],
    latitude: -3.7319,
    longitude: -38.5267,
  },
  {
    name: "Brasília",
    state: "DF",
    ddd: "61",
    zipPrefix: "70",
    districts: ["Asa Sul", "Asa Norte", "Lago Sul"],
    latitude: -15.7939,
    longitude: -47.8828,
  },
  {
    name: "Goiânia",
    state: "GO",
    ddd: "62",
    zipPrefix: "74",
    districts: ["Setor Bueno", "Setor Oeste", "Setor Marista"],
    latitude: -16.6869,
    longitude: -49.2648,
  },
  {
    name: "Manaus",
    state: "AM",
    ddd: "92",
    zipPrefix: "69",
    districts: ["Adrianópolis", "Centro", "Ponta Negra"],
    latitude: -3.119,
    longitude: -60.0217,
  },
  {
    name: "Belém",
    state: "PA",
    ddd: "91",
    zipPrefix: "66",
    districts: ["Nazaré", "Umarizal", "Batista Campos"],
    latitude: -1.4558,
    longitude: -48.4902,
  },
];
export const STREETS = [
  "Rua das Flores",
  "Avenida Paulista",
  "Rua XV de Novembro",
  "Avenida Brasil",
  "Rua Sete de Setembro",
  "Rua Tiradentes",
  "Avenida Getúlio Vargas",
  "Rua Dom Pedro II",
  "Rua São José",
  "Avenida Rio Branco",
  "Rua Marechal Deodoro",
  "Rua Bahia",
  "Alameda Santos",
  "Rua Augusta",
  "Avenida Atlântica",
];
export const COMPLEMENTS = ["", "", "Apto 12", "Apto 304", "Casa 2", "Bloco B", "Sala 5", "Fundos"];
export const REFERENCES = ["", "", "Próximo à padaria", "Em frente à praça", "Portão azul", "Ao lado do mercado"];

export interface Agency {
  agency_id: string;
  agency_company: string;
  company_name: string;
  email: string;
  phone: string;
  city: City;
  street: string;
  number: string;
  district: string;
  postal_code: string;
}

/** One drop-off agency per city, its address and phone drawn from `random`. */
export function buildAgencies(random: SeededRandom): Agency[] {
  return CITIES.map((city, index) => ({
    agency_id: String(10000 + index * 37),
    agency_company: "Correios",
    company_name: `Agência ${city.name} Centro`,
    email: `agencia${index + 1}@correios.example`,
    phone: `${city.ddd}3${random.digits(7)}`,
    city,
    street: random.pick(STREETS),
    number: String(random.int(10, 2000)),
    district: random.pick(city.districts),
    postal_code: `${city.zipPrefix}${random.digits(3)}-${random.digits(3)}`,
  }));
}

/** Names become e-mail addresses, which keep to ASCII here. */
export function stripAccents(value: string): string {
  return value.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
}
