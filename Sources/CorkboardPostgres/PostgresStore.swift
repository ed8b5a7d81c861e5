import CPostgres
