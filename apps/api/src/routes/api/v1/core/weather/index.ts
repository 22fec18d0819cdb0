/**
 * /api/v1/core/weather/?lat=&lng= (spec section 7; issue 24): the weather at a point from the company's
 * own fresh stations first, then the configured provider; never an error for missing data, an empty
 * result with a reason instead.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { responses, WeatherPayload, WeatherQuery } from '@iot/contracts';
import { authOf } from '../../../../../plugins/guards';
import { readWeather } from '../../../../../services/read-weather';
import { createWeatherProvider } from '../../../../../services/weather-providers';

const weatherRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config } = app.deps;
  // One provider (and its cache) per app.
  const provider = config.WEATHER_PROVIDER_URL
    ? createWeatherProvider(config.WEATHER_PROVIDER, config.WEATHER_PROVIDER_URL)
    : null;

  app.get(
    '/',
    {
      schema: {
        tags: ['farming'],
        operationId: 'readWeather',
        summary:
          'Weather at a point: own stations within the radius first, then the provider; each value with source and time',
        querystring: WeatherQuery,
        response: responses(WeatherPayload, [422]),
      },
    },
    async (request) => ({
      payload: await readWeather(db, authOf(request), request.query, {
        provider,
        radiusKm: config.WEATHER_STATION_RADIUS_KM,
      }),
    }),
  );
};

export default weatherRoutes;
